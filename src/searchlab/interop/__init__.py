"""Adapters to the APIs game-AI builders already use, each behind its own extra.

* :mod:`searchlab.interop.openspiel` (``pip install 'searchlab[openspiel]'``): an OpenSpiel game
  as a searchlab game (:class:`~searchlab.interop.openspiel.OpenSpielGame`), so searchlab's
  searches run on it, and a searchlab agent as an OpenSpiel bot
  (:class:`~searchlab.interop.openspiel.SearchlabBot`);
* :mod:`searchlab.interop.pettingzoo` (``pip install 'searchlab[pettingzoo]'``): searchlab's
  built-in games as PettingZoo AEC environments.

Importing this package imports neither OpenSpiel nor PettingZoo; importing an adapter without
its extra is one line naming the extra. See ``docs/interop.md``.
"""

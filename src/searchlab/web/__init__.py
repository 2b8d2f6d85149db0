"""The browser lab: a local web application to play games and watch every search.

``searchlab serve`` runs :func:`searchlab.web.app.create_app` on uvicorn. The server sits at the
top of the layers, beside the command line, behind the optional extra ``web`` (FastAPI and
uvicorn); it talks to the library through its public API and observers only, and runs every
search in a worker process (:mod:`searchlab.web.workers`) under the caps of
:class:`searchlab.web.caps.ServerCaps`. The pages are static files (``web/static``): plain
HTML, CSS and JavaScript modules, no build step.

Nothing here is imported by ``import searchlab``: FastAPI is needed only to serve.
"""

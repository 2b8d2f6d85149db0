"""Top layer: the ``searchlab`` command line. Imports every layer below; nothing imports it."""

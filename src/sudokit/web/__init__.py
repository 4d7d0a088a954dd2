"""``sudoku serve``: a local page to play and learn, and a JSON API.

:func:`sudokit.web.app.create_app` builds the FastAPI application (the
``web`` extra: ``pip install 'sudokit[web]'``); the page itself is plain
HTML, CSS and JavaScript in ``static/``, served as package data.
"""

"""Project package for the Rummy Table site: settings, URLs, ASGI and WSGI entry points."""

"""The floor of the move benchmark (``manage.py bench_moves``): a bare Django project whose one view
does what every move must do at least, one locking transaction (``SELECT ... FOR UPDATE`` of a row,
then ``UPDATE``; ``tests/bench/floor_urls.py``), on the site's own PostgreSQL settings (the same
pool), with no app and no middleware. Served by daphne exactly as the site is:

    DJANGO_SETTINGS_MODULE=tests.bench.floor daphne -b 127.0.0.1 -p PORT tests.bench.floor:application

Not collected by pytest.
"""
from __future__ import annotations

from django.core.asgi import get_asgi_application

from rummy_site.settings import ALLOWED_HOSTS, DATABASES, DEBUG, SECRET_KEY  # noqa: F401 - settings of this project

ROOT_URLCONF = "tests.bench.floor_urls"
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
USE_TZ = True

application = get_asgi_application()

"""Settings of the signed-in floor of ``manage.py bench_moves``: the site's own settings (apps,
middleware, sessions, authentication), whose only URLs are the floor's
(``tests/bench/floor_urls.py``), served by the site's ASGI application:

    DJANGO_SETTINGS_MODULE=tests.bench.signed_in_floor daphne -b 127.0.0.1 -p PORT rummy_site.asgi:application

Its ``signed-in/<row>`` view costs a request what the site's stack costs before any game work.
Not collected by pytest.
"""
from rummy_site.settings import *  # noqa: F403 - the site's settings, with the floor's URLs

ROOT_URLCONF = "tests.bench.floor_urls"

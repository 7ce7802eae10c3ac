"""Settings: production values from the environment, deploy checks, and the CI entry point."""
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(64),
    "ALLOWED_HOSTS": "example.com",
    "CSRF_TRUSTED_ORIGINS": "https://example.com",
    "DATABASE_URL": "postgres://rummy:secret@db.example.com:5432/rummy",
    "REDIS_URL": "redis://redis.example.com:6379/0",
}

PRINT_SETTINGS = """
import json
import django
from django.conf import settings
django.setup()
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
    "DATABASE_ENGINE": settings.DATABASES["default"]["ENGINE"],
    "CONN_MAX_AGE": settings.DATABASES["default"]["CONN_MAX_AGE"],
    "DATABASE_POOL": settings.DATABASES["default"].get("OPTIONS", {}).get("pool"),
    "CHANNEL_LAYER": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "CACHE": settings.CACHES["default"]["BACKEND"],
    "STATICFILES_STORAGE": settings.STORAGES["staticfiles"]["BACKEND"],
    "EMAIL_BACKEND": settings.EMAIL_BACKEND,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
    "SECURE_PROXY_SSL_HEADER": settings.SECURE_PROXY_SSL_HEADER,
    "RUMMY_MOVE_RATE": settings.RUMMY_MOVE_RATE,
}))
"""


def run_django(args, env):
    """Run ``python <args>`` in the project directory with only ``env`` on top of a clean environment."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(
            ("DJANGO_", "DATABASE_", "REDIS_", "SECRET", "ALLOWED_", "CSRF_", "EMAIL_", "RUMMY_")
        )
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_settings(**overrides):
    """The settings a production environment (plus ``overrides``) produces, read in a subprocess."""
    result = run_django(["-c", PRINT_SETTINGS], {**PRODUCTION_ENV, **overrides})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_check_deploy_passes_with_production_environment():
    result = run_django(["manage.py", "check", "--deploy"], PRODUCTION_ENV)

    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output
    assert "WARNINGS" not in output
    assert "?:" not in output


def test_production_requires_secret_key():
    env = {**PRODUCTION_ENV, "SECRET_KEY": ""}

    result = run_django(["manage.py", "check"], env)

    assert result.returncode != 0
    assert "SECRET_KEY must be set when DJANGO_DEBUG=0" in result.stderr


def test_production_settings_come_from_the_environment():
    values = production_settings(SECURE_PROXY_SSL_HEADER="1", RUMMY_MOVE_RATE="60/m")

    assert values == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["example.com"],
        "CSRF_TRUSTED_ORIGINS": ["https://example.com"],
        "DATABASE_ENGINE": "django.db.backends.postgresql",
        "CONN_MAX_AGE": 0,
        "DATABASE_POOL": {"min_size": 2, "max_size": 8, "timeout": 10.0, "max_idle": 1.0},
        "CHANNEL_LAYER": "channels_redis.core.RedisChannelLayer",
        "CACHE": "rummy_site.cache.FailOpenRedisCache",
        "STATICFILES_STORAGE": "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "RUMMY_MOVE_RATE": "60/m",
    }


PRINT_DATABASE_TIMEOUTS = """
import json
import django
from django.conf import settings
django.setup()
options = settings.DATABASES["default"]["OPTIONS"]
print(json.dumps({"connect_timeout": options["connect_timeout"], "options": options["options"]}))
"""


@pytest.mark.parametrize(("env", "expected"), [
    ({}, {"connect_timeout": 5, "options": "-c statement_timeout=15000"}),
    ({"DATABASE_CONNECT_TIMEOUT": "3", "DATABASE_STATEMENT_TIMEOUT": "2500",
      "DATABASE_URL": "postgres://rummy@db.example.com/rummy?options=-c%20search_path%3Dgames"},
     {"connect_timeout": 3, "options": "-c search_path=games -c statement_timeout=2500"}),
])
def test_database_timeouts_come_from_the_environment(env, expected):
    result = run_django(["-c", PRINT_DATABASE_TIMEOUTS], {**PRODUCTION_ENV, **env})

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected


def test_the_connection_pool_is_sized_from_the_environment():
    values = production_settings(DATABASE_POOL_MIN_SIZE="1", DATABASE_POOL_MAX_SIZE="4",
                                 DATABASE_POOL_TIMEOUT="2.5", DATABASE_POOL_MAX_IDLE="30")

    assert values["CONN_MAX_AGE"] == 0
    assert values["DATABASE_POOL"] == {"min_size": 1, "max_size": 4, "timeout": 2.5, "max_idle": 30.0}


@pytest.mark.parametrize("variable, value", [("DATABASE_POOL_MAX_SIZE", "0"), ("DATABASE_POOL_MAX_SIZE", "many"),
                                             ("DATABASE_POOL_MIN_SIZE", "9"), ("DATABASE_POOL_TIMEOUT", "-1"),
                                             ("DATABASE_POOL_MAX_IDLE", "soon")])
def test_a_bad_pool_size_or_timeout_is_refused_at_start(variable, value):
    result = run_django(["manage.py", "check"], {**PRODUCTION_ENV, variable: value})

    assert result.returncode != 0
    assert variable in result.stderr


def test_sqlite_has_no_pool():
    result = run_django(["-c", PRINT_SETTINGS], {})

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["DATABASE_POOL"] is None


@pytest.mark.postgres
@pytest.mark.django_db
def test_tests_on_postgresql_use_the_pool_on_the_test_database():
    """pytest-django's test database is served by the pool, not the database named in DATABASE_URL."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        (name,) = cursor.fetchone()
    assert connection.pool is not None
    assert name == connection.settings_dict["NAME"] and name.startswith("test_")


def test_email_host_switches_to_smtp():
    values = production_settings(EMAIL_HOST="smtp.example.com")

    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"


REQUEST_OVER_HTTP = """
import django
from django.test import Client
django.setup()
client = Client(HTTP_HOST="example.com")
print(client.get("/healthz").status_code, client.get("/accounts/login/").status_code)
"""


def test_production_redirects_to_https_except_the_health_check(tmp_path):
    env = {**PRODUCTION_ENV, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": ""}

    result = run_django(["-c", REQUEST_OVER_HTTP], env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", "301"]


def test_development_defaults_need_no_environment():
    result = run_django(["-c", PRINT_SETTINGS], {})

    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["DEBUG"] is True
    assert values["DATABASE_ENGINE"] == "django.db.backends.sqlite3"
    assert values["CHANNEL_LAYER"] == "channels.layers.InMemoryChannelLayer"
    assert values["CACHE"] == "django.core.cache.backends.locmem.LocMemCache"
    assert values["STATICFILES_STORAGE"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_tests_use_a_file_database_and_plain_static_storage():
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        # A file, so that forked live servers share it (pytest-xdist adds its worker's suffix).
        assert ".sqlite3" in settings.DATABASES["default"]["TEST"]["NAME"]
    assert (
        settings.STORAGES["staticfiles"]["BACKEND"]
        == "django.contrib.staticfiles.storage.StaticFilesStorage"
    )


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client):
    response = client.get("/accounts/login/")

    policy = dict(
        directive.strip().split(" ", 1) for directive in response["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_base_template_turns_off_htmx_inline_styles_and_sends_csrf_header(client):
    content = client.get("/accounts/login/").content.decode()

    assert """<meta name="htmx-config" content='{"includeIndicatorStyles":false}'>""" in content
    assert """hx-headers='{"X-CSRFToken": \"""" in content
    assert "/static/js/vendor/htmx.min.js" in content


def test_ci_script_and_readme_run_make_test():
    ci_script = (BASE_DIR / ".ci" / "run").read_text()
    readme = (BASE_DIR / "README.md").read_text()

    assert "make test" in ci_script
    assert "make test" in readme
    assert "make run" in readme

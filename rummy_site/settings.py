"""Django settings for Rummy Table.

One module for every environment: each value comes from an environment variable and falls back to a
development default. With ``DJANGO_DEBUG=0`` the development defaults that would be unsafe in
production (secret key, console e-mail, plain static storage) are replaced or refused; see README.md
for the production variables.
"""

import os
import sys
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    """Read a boolean environment variable: 1/true/yes/on are true, 0/false/no/off/empty are false."""
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}.")


def env_list(name, default):
    """Read a comma-separated environment variable into a list of non-empty, stripped items."""
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name, default):
    """Read a whole-number environment variable (0 or more)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.")
    return int(value)


def env_float(name, default):
    """Read a number of seconds (0 or more) from the environment."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number >= 0:
        raise ImproperlyConfigured(f"{name} must be a number of seconds, not {value!r}.")
    return number


DEBUG = env_bool("DJANGO_DEBUG", True)
# True under pytest (or with DJANGO_TESTING=1): static files come from the finders and passwords
# use a fast hasher.
TESTING = env_bool("DJANGO_TESTING", "pytest" in sys.modules)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_DEBUG=0.")
    SECRET_KEY = "django-insecure-dev-only-7f3k2m9q4x8v1c6b5n0z2l7j4h9g3d8s1a6p5o0i"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "django_htmx",
    "django_ratelimit",
    "channels",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "accounts",
    "games",
    "records",
    "moderation",
    "notices",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "rummy_site.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After HtmxMiddleware (an htmx request gets a fragment); before any view reads the request.
    "rummy_site.middleware.RefuseMalformedRequestMiddleware",
    # The signed-in user's time zone, kept in the session: no statement of its own. After the
    # refusal of malformed requests, which must come before anything reads the session.
    "accounts.session_zone.UserTimeZoneMiddleware",
    "accounts.middleware.HtmxLoginRedirectMiddleware",
    "csp.middleware.CSPMiddleware",
    # Innermost: the 405 page it puts in place of an empty one still gets the headers added above.
    "rummy_site.middleware.MethodNotAllowedPageMiddleware",
]

ROOT_URLCONF = "rummy_site.urls"
WSGI_APPLICATION = "rummy_site.wsgi.application"
ASGI_APPLICATION = "rummy_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.games_waiting",
            ],
        },
    },
]

# Database: DATABASE_URL, e.g. postgres://user:password@host:5432/rummy; SQLite file by default.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not ":memory:", so that a live server in another thread or process shares it; one
    # per test process, so that test runs side by side do not delete each other's database.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"rummy-test-{os.getpid()}.sqlite3")
    }
    # Writers queue for the lock instead of failing with "database is locked": transactions take
    # the write lock when they begin (SQLite has no row locks), and waiting is allowed for 20 s.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
else:
    # Django's psycopg pool: each process (daphne, db_worker) holds at most max_size connections,
    # a request waits up to timeout seconds for one, and an idle pool drops one connection above
    # min_size every max_idle seconds. Connections go back to the pool after every request, hence
    # CONN_MAX_AGE 0 (a pool refuses persistent connections).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASE_POOL = {
        "min_size": env_int("DATABASE_POOL_MIN_SIZE", 2),
        "max_size": env_int("DATABASE_POOL_MAX_SIZE", 8),
        "timeout": env_float("DATABASE_POOL_TIMEOUT", 10.0),
        "max_idle": env_float("DATABASE_POOL_MAX_IDLE", 1.0),
    }
    if DATABASE_POOL["max_size"] < max(1, DATABASE_POOL["min_size"]):
        raise ImproperlyConfigured("DATABASE_POOL_MAX_SIZE must be at least 1 and at least DATABASE_POOL_MIN_SIZE.")
    # A PostgreSQL that is gone or hung fails a request within these bounds (a 503 page, see
    # rummy_site/middleware.py) instead of holding its thread: libpq's connect timeout in seconds
    # (2 at least), and the server's statement timeout in milliseconds (0: none).
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["pool"] = DATABASE_POOL
    _options["connect_timeout"] = env_int("DATABASE_CONNECT_TIMEOUT", 5)
    _statement_timeout = env_int("DATABASE_STATEMENT_TIMEOUT", 15000)
    _options["options"] = f"{_options.get('options', '')} -c statement_timeout={_statement_timeout}".strip()

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis carries the channel layer and the cache (rate limits, sessions) when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "")
# How long Redis keeps a session read from or written to the database, in seconds (SessionCache):
# a log-out while Redis is unreachable leaves the session's cached copy alive this long at most.
SESSION_CACHE_SECONDS = 300
# A game page whose websocket is down (Redis unreachable, server restarting) asks for the game's
# version every this many milliseconds until the socket is open again. Without Redis the channel
# layer lives in one process, so events sent by the job worker (another process) reach no page:
# pages then poll all the time (RUMMY_PAGE_POLL_ALWAYS).
RUMMY_PAGE_POLL_MS = int(os.environ.get("RUMMY_PAGE_POLL_MS", "1000"))
RUMMY_PAGE_POLL_ALWAYS = not REDIS_URL
if REDIS_URL:
    # channels-redis waits for a socket's messages with a blocking pop of 5 s; redis-py 8 gives up
    # on any read after its default 5 s socket timeout, which killed idle sockets (1011). No socket
    # timeout: Redis itself answers the pop after 5 s. (A finite one longer than the pop would keep
    # idle sockets open too, but redis-py then sends through asyncio.wait_for, which on Python 3.11
    # can swallow the cancellation of a closed socket's receive, leaving it polling Redis forever.)
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None, "socket_connect_timeout": 5}]},
        }
    }
    # Django's own Redis cache, which while Redis is unreachable (refusing, or silent for a second)
    # acts as an empty cache: rate limits fail open, logged once (rummy_site/cache.py).
    _redis_cache_options = {"socket_connect_timeout": 1, "socket_timeout": 1}
    CACHES = {
        "default": {
            "BACKEND": "rummy_site.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": _redis_cache_options,
        },
        "sessions": {
            "BACKEND": "rummy_site.cache.SessionCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": _redis_cache_options,
            "TIMEOUT": SESSION_CACHE_SECONDS,
        },
    }
    # Sessions are read from Redis and written to both (Django's cached_db): a request reads its
    # session without an SQL statement. Every process shares the one Redis, so a log-out on one
    # server holds on all; while Redis is unreachable sessions come from the database.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    SESSION_CACHE_ALIAS = "sessions"
    # Django's Redis cache is shared and increments atomically, which is what django-ratelimit
    # needs; the check only warns that the backend is not on the package's short list.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # A per-process cache is fine for a single development process; production sets REDIS_URL.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Tests hash many passwords; a fast hasher keeps them quick. Never used outside tests.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"

# django-allauth (65.x setting names).
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Rummy Table] "
# The sign-up form shows the user name's allowed characters (the User model's validators); the
# e-mail page refuses an address another account has, as sign-up does (README, "E-mail addresses").
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm", "add_email": "accounts.forms.AddEmailForm"}
# Merged into allauth's defaults; format "amount/duration/per", per is ip, user or key.
# login_failed's key is the account and the address together (accounts/adapter.py): one address
# gets 10 wrong passwords a minute over all accounts and 5 per 5 minutes for one account, while
# the owner, from another address, still logs in (README, "Log-in rate limits").
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "5/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
# Number of reverse proxies in front of the site whose X-Forwarded-For allauth may trust.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))

# Game moves are rate limited per user with django-ratelimit by the games views.
RUMMY_MOVE_RATE = os.environ.get("RUMMY_MOVE_RATE", "120/m")
# Players' reports of other players or games, per user.
RUMMY_REPORT_RATE = os.environ.get("RUMMY_REPORT_RATE", "5/h")
# Tables a user may have waiting for players at once, so that nobody can fill the lobby.
RUMMY_OPEN_TABLES_PER_USER = int(os.environ.get("RUMMY_OPEN_TABLES_PER_USER", "3"))

# Background jobs (computer turns, deadlines, e-mail): django-tasks with the database backend of
# django-tasks-db; ``manage.py db_worker`` runs them (games/jobs.py says why this library).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# Pause before a computer player's move, in seconds, so people can follow it (0 under pytest).
RUMMY_COMPUTER_PAUSE_SECONDS = float(os.environ.get("RUMMY_COMPUTER_PAUSE_SECONDS", "0" if TESTING else "1"))
# A "your turn" e-mail waits this long, and is sent only if the player has no open page then.
RUMMY_EMAIL_GRACE_SECONDS = int(os.environ.get("RUMMY_EMAIL_GRACE_SECONDS", "120"))
# An open page counts as present while its websocket has pinged within this many seconds.
RUMMY_PRESENCE_SECONDS = int(os.environ.get("RUMMY_PRESENCE_SECONDS", "90"))
# The site's address for links in e-mails, e.g. https://rummy.example.com
RUMMY_SITE_URL = os.environ.get("RUMMY_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# E-mail: console in development, SMTP when EMAIL_HOST is set.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Rummy Table <noreply@localhost>")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Production serves collectstatic's compressed, hashed files; development and tests serve the
# source files straight from the finders, so they never need collectstatic.
SERVE_COLLECTED_STATIC = not (DEBUG or TESTING)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if SERVE_COLLECTED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = not SERVE_COLLECTED_STATIC

# Content Security Policy (django-csp 4). htmx's indicator style is switched off by the
# htmx-config meta tag in base.html, so no inline style is needed. 'self' in connect-src also
# matches the same host's ws:/wss: URLs (CSP level 3), which the site's websockets use.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe the health check over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("SECURE_PROXY_SSL_HEADER", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Console logging only. Nothing here logs request bodies: django.request records the path and
# status of failing requests, never POST data. A request Django refuses as suspicious (400) is a
# warning line, not an error with a traceback (rummy_site/log_filters.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {
        "suspicious_request_as_warning": {"()": "rummy_site.log_filters.SuspiciousRequestAsWarning"},
        "refused_request_without_traceback": {"()": "rummy_site.log_filters.RefusedRequestWithoutTraceback"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain",
                    "filters": ["suspicious_request_as_warning", "refused_request_without_traceback"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        # Replaces Django's default "django" handler, which would print every line a second time.
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.db.backends": {"level": "WARNING"},
        # The pool logs every connection it drops when idle; only its problems are worth a line.
        "psycopg.pool": {"level": "WARNING"},
    },
}

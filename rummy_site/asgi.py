"""ASGI entry point: Django for HTTP, the games app's consumers for websockets."""
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

# Set Django up before anything imports models (consumers, the auth middleware).
django.setup(set_prefix=False)

from rummy_site.handlers import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

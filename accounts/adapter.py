"""The site's allauth adapter: failed log-ins are counted per account and address together, so
that a stranger's wrong passwords cannot keep an account's owner out (README, "Log-in rate limits");
a new user name is normalised before it is checked."""
from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal.ratelimit import get_ip
from django.contrib.auth import get_user_model


class AccountAdapter(DefaultAccountAdapter):
    """allauth's default adapter, with the key of the ``login_failed`` per-key rate limit and user
    names in Unicode NFKC form."""

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """``username`` in NFKC form, as Django's own user forms store it (a full-width "ａｌｉｃｅ" is
        "alice"), checked by allauth: the user model's validators (ASCII only), then that no user
        has it in any letter case."""
        return super().clean_username(get_user_model().normalize_username(username), shallow)

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """The login (user name or e-mail address, lower case) and the client's address, as
        ``"<site domain>:<login>:<address>"``; the address as allauth's per-address limits see it
        (behind ``ALLAUTH_TRUSTED_PROXY_COUNT`` proxies, an IPv6 address by its /64 prefix).
        A password reset clears this key for the account's e-mail addresses."""
        return f"{super()._get_login_attempts_cache_key(request, **credentials)}:{get_ip(request)}"

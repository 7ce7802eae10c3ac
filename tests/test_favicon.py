"""The site's icon: a spade in static/favicon.svg, linked from every page and answered at /favicon.ico."""
import re

import pytest


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_svg_spade_that_pages_link(client):
    response = client.get("/favicon.ico", follow=True)

    assert response.redirect_chain[0][1] == 302 and response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in b"".join(response.streaming_content)
    page = client.get("/accounts/login/").content.decode()
    assert re.search(r'<link rel="icon" href="/static/favicon\.svg"', page)

"""The preferences page in a browser: it offers to select the browser's own time zone."""
import pytest
from playwright.sync_api import expect

from accounts.preferences import preferences_for
from tests.e2e.conftest import E2E_PASSWORD

pytestmark = [pytest.mark.e2e]


def test_the_browsers_time_zone_is_selected_on_request(browser, live_server_url, log_in, django_user_model):
    """A browser in Berlin is offered Europe/Berlin; the button selects it, saving stores it, and
    the offer is gone once it is the saved zone."""
    user = django_user_model.objects.create_user(username="ana", email="ana@example.com", password=E2E_PASSWORD)
    context = browser.new_context(base_url=live_server_url, timezone_id="Europe/Berlin")
    try:
        page = context.new_page()
        log_in(page, "ana", E2E_PASSWORD)
        page.goto("/accounts/preferences/")
        select = page.locator("#id_time_zone")
        expect(select).to_have_value("UTC")
        page.get_by_role("button", name="Use this browser's time zone (Europe/Berlin)").click()
        expect(select).to_have_value("Europe/Berlin")
        page.get_by_role("button", name="Save preferences").click()
        expect(page.locator("#messages")).to_contain_text("Your preferences are saved.")
        expect(select).to_have_value("Europe/Berlin")
        expect(page.locator("#browser-zone")).to_be_hidden()
    finally:
        context.close()
    assert preferences_for(user).time_zone == "Europe/Berlin"

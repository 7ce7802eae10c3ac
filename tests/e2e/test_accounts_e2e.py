"""Browser smoke test of the account pages: sign up, log out, log in."""
import re

from playwright.sync_api import expect

PASSWORD = "lay-off-the-queen-7"


def test_sign_up_log_out_and_log_in_again(browser_context, log_in, django_user_model):
    """A visitor signs up through the real form, logs out from the nav and logs back in."""
    page = browser_context().new_page()
    page.goto("/accounts/login/")
    page.get_by_role("navigation").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    form = page.locator("main form")
    form.locator("input[name=email]").fill("ada@example.com")
    form.locator("input[name=username]").fill("ada")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.get_by_role("button", name=re.compile("sign up", re.I)).click()
    expect(page).not_to_have_url(re.compile(r"/accounts/signup/"))
    assert django_user_model.objects.filter(username="ada", email="ada@example.com").exists()

    page.goto("/accounts/password/change/")
    nav = page.get_by_role("navigation")
    expect(nav.get_by_test_id("nav-username")).to_have_text("ada")
    nav.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"^http://[^/]+/$"))
    page.goto("/accounts/password/change/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav.get_by_test_id("nav-username")).to_have_count(0)

    log_in(page, "ada", PASSWORD)
    page.goto("/accounts/password/change/")
    expect(page.get_by_role("navigation").get_by_test_id("nav-username")).to_have_text("ada")


def test_new_user_page_is_logged_in(new_user_page):
    """The ``new_user_page`` fixture hands back a page whose session belongs to the new user."""
    page = new_user_page("bea")
    page.goto("/accounts/password/change/")
    expect(page).to_have_url(re.compile(r"/accounts/password/change/$"))
    expect(page.get_by_test_id("nav-username")).to_have_text("bea")

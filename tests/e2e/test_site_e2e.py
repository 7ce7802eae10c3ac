"""Browser checks of the site frame: htmx loads and the Content Security Policy holds."""
import pytest

RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective);
});
"""

OPEN_WEBSOCKET = """
(url) => new Promise((resolve) => {
  const before = window.cspViolations.length;
  let done = false;
  const finish = (outcome) => {
    if (done) return;
    done = true;
    setTimeout(() => resolve({outcome, violations: window.cspViolations.slice(before)}), 300);
  };
  setTimeout(() => finish("no answer within 3s"), 3000);
  let socket;
  try {
    socket = new WebSocket(url);
  } catch (error) {
    finish("threw " + error.name);
    return;
  }
  socket.onopen = () => socket.close();
  socket.onclose = () => finish("closed");
})
"""


@pytest.fixture
def page(browser_context):
    """A page that records Content Security Policy violations in ``window.cspViolations``."""
    context = browser_context()
    context.add_init_script(RECORD_VIOLATIONS)
    return context.new_page()


def test_htmx_loads_without_csp_violations(page):
    """htmx runs under the policy; its inline indicator style is off, so nothing is refused."""
    page.goto("/accounts/login/")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.evaluate("() => htmx.config.includeIndicatorStyles") is False
    assert page.evaluate("() => window.cspViolations") == []


def test_violation_recorder_sees_an_inline_style(page):
    """Control for the tests here: an inline <style> is refused and recorded."""
    page.goto("/accounts/login/")
    page.evaluate("() => document.head.insertAdjacentHTML('beforeend', '<style>p{}</style>')")
    page.wait_for_function("() => window.cspViolations.length > 0")
    assert page.evaluate("() => window.cspViolations")[0].startswith("style-src")


def test_same_origin_websocket_is_allowed_by_connect_src(page, live_server_url):
    """connect-src 'self' covers ws:// on the page's own host and port, so no ws: source is needed."""
    page.goto("/accounts/login/")
    same_origin = live_server_url.replace("http://", "ws://") + "/ws/csp-probe/"
    result = page.evaluate(OPEN_WEBSOCKET, same_origin)
    # daphne received the handshake and closed it (no websocket route has that path).
    assert result == {"outcome": "closed", "violations": []}

    other_origin = "ws://127.0.0.1:9/ws/csp-probe/"
    result = page.evaluate(OPEN_WEBSOCKET, other_origin)
    assert result["violations"] == ["connect-src"]

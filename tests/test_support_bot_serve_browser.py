"""The chat page in a real browser: Playwright driving Debian's chromium (never a download).

The test types requests, watches the tool line and the streamed answer
appear, approves a reservation and checks the stock in the database. It
saves a screenshot of the page; with ``SUPPORT_BOT_SCREENSHOT=path`` it goes
there (the README's docs/serve-page.png is made that way).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from serve_helpers import Served, serve_in_thread
from support_bot._store import Store
from support_bot.serve import DemoChatModel

if TYPE_CHECKING:
    from playwright.sync_api import Page

sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (the test group)")

CHROMIUM = os.environ.get("SUPPORT_BOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="needs Debian's chromium package (apt-get install chromium; .ci/run installs it)",
)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


@pytest.fixture
def served(store: Store) -> Iterator[Served]:
    with serve_in_thread(store, DemoChatModel(), approval_timeout_s=30.0) as running:
        yield running


@pytest.fixture
def page(served: Served) -> Iterator[Page]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1100, "height": 640})
            opened = context.new_page()
            opened.set_default_timeout(15_000)
            yield opened
        finally:
            browser.close()


def test_a_shop_clerk_chats_approves_a_reservation_and_comes_back(
    served: Served, store: Store, page: Page, tmp_path: Path
) -> None:
    expect = sync_api.expect
    page.goto(served.url)
    expect(page.locator("#conversations li")).to_have_count(1)

    page.fill("#text", "What is 128 times 32?")
    page.press("#text", "Enter")
    tool = page.locator(".tool.ok").first
    expect(tool).to_contain_text('calculate({"operation": "multiply", "left": "128"')
    expect(tool).to_contain_text("→ 128 * 32 = 4096")
    expect(page.locator(".msg.assistant").last).to_have_text("Done: 128 * 32 = 4096")

    page.fill("#text", "Reserve 2 of SKU-100")
    page.click("#send")
    prompt = page.locator(".approval")
    expect(prompt).to_contain_text('Approve product_reserve({"sku": "SKU-100", "quantity": 2})?')
    assert store.product("SKU-100").stock == 12  # nothing happens before the click
    prompt.get_by_role("button", name="Approve").click()
    expect(prompt).to_contain_text("approved")
    expect(page.locator(".tool.ok").last).to_contain_text("reservation R-1; 10 left in stock")
    expect(page.locator(".msg.assistant").last).to_contain_text("10 left in stock.")
    assert store.product("SKU-100").stock == 10

    shot = Path(os.environ.get("SUPPORT_BOT_SCREENSHOT") or tmp_path / "serve-page.png")
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000

    first = page.locator("#conversations li.current")
    expect(first).to_have_text("What is 128 times 32?")
    page.click("#new")
    expect(page.locator("#log")).to_be_empty()
    expect(page.locator("#conversations li")).to_have_count(2)
    page.get_by_text("What is 128 times 32?").click()
    expect(page.locator(".msg.user").first).to_have_text("What is 128 times 32?")
    expect(page.locator(".tool.ok")).to_have_count(2)
    expect(page.locator(".msg.assistant").last).to_contain_text("10 left in stock.")


def test_a_denied_reservation_takes_nothing(served: Served, store: Store, page: Page) -> None:
    page.goto(served.url)
    expect = sync_api.expect
    expect(page.locator("#conversations li")).to_have_count(1)
    page.fill("#text", "Reserve 1 of SKU-300")
    page.press("#text", "Enter")
    page.locator(".approval").get_by_role("button", name="Deny").click()
    expect(page.locator(".approval")).to_contain_text("denied")
    expect(page.locator(".tool.err")).to_contain_text("product_reserve")
    expect(page.locator(".msg.assistant").last).to_contain_text("Done:")
    assert store.product("SKU-300").stock == 4


def test_a_reservation_asked_before_a_reload_is_approved_after_it(
    served: Served, store: Store, page: Page
) -> None:
    expect = sync_api.expect
    page.goto(served.url)
    expect(page.locator("#conversations li")).to_have_count(1)
    page.fill("#text", "Reserve 2 of SKU-100")
    page.press("#text", "Enter")
    expect(page.locator(".approval")).to_contain_text("Approve product_reserve")
    expect(page.locator("#status")).to_have_text("Waiting for your decision…")

    page.reload()  # the tab reloaded (or the server restarted): the question is still there
    prompt = page.locator(".approval")
    expect(prompt).to_contain_text('Approve product_reserve({"sku": "SKU-100", "quantity": 2})?')
    expect(page.locator(".msg.user")).to_have_text("Reserve 2 of SKU-100")
    assert store.product("SKU-100").stock == 12
    prompt.get_by_role("button", name="Approve").click()
    expect(prompt).to_contain_text("approved")
    expect(page.locator(".tool.ok").last).to_contain_text("reservation R-1; 10 left in stock")
    expect(page.locator(".msg.assistant").last).to_contain_text("10 left in stock.")
    assert store.product("SKU-100").stock == 10

    page.reload()  # decided: nothing is asked again, the history shows what happened
    expect(page.locator(".tool.ok")).to_have_count(1)
    expect(page.locator(".approval")).to_have_count(0)
    expect(page.locator(".msg.assistant").last).to_contain_text("10 left in stock.")

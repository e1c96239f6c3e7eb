"""An app made after a warm one in the same process (the SSH fork server's children)
starts from the warm app's parsed stylesheet, once, and only when its theme variables
are the same; the screen it shows is the same as from a stylesheet of its own."""

from __future__ import annotations

from tui.app import AtlantisApp, WarmStylesheet


async def menu_text(app: AtlantisApp) -> str:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return app.export_screenshot()


async def test_the_next_app_starts_from_the_warm_stylesheet_once_and_draws_the_same():
    warm = AtlantisApp(autosave=False)
    own = await menu_text(warm)
    AtlantisApp.warm_stylesheet = WarmStylesheet(warm.get_css_variables(), warm.stylesheet)
    try:
        nxt = AtlantisApp(autosave=False)
        assert nxt.stylesheet is warm.stylesheet and AtlantisApp.warm_stylesheet is None
        assert AtlantisApp(autosave=False).stylesheet is not warm.stylesheet  # (once)
        assert await menu_text(nxt) == own
    finally:
        AtlantisApp.warm_stylesheet = None


def test_other_theme_variables_leave_the_warm_stylesheet_unused():
    warm = AtlantisApp(autosave=False)
    AtlantisApp.warm_stylesheet = WarmStylesheet({"primary": "#123456"}, warm.stylesheet)
    try:
        assert AtlantisApp(autosave=False).stylesheet is not warm.stylesheet
    finally:
        AtlantisApp.warm_stylesheet = None

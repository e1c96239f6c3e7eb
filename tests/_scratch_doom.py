exec(open("/tmp/patch.py").read())
from test_end_of_atlantis_turn_reading import three_seat_app

async def test_scratch():
    from tui.end_of_atlantis.screen import DoomSummaryScreen
    from tui.screens.dialogs import CurtainScreen
    table, app = three_seat_app(humans=2, near_the_doom_phase=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4000):
            await pilot.pause(0.01)
            if table.match.state.turn >= 2 and table.match.state.stage != "senate" and table.match.state.stage != "order":
                break
            if isinstance(app.screen, (DoomSummaryScreen, CurtainScreen)) or table.human_to_act() is not None:
                print("PRESS on", type(app.screen).__name__, app.game_screen.link.seat, table.match.state.turn, table.match.state.stage)
                await pilot.press("enter")
    assert 0

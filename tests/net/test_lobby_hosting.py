"""Opening a table without a screen (what nil-tui host and setup's Host a table share): the
host's seat, the invite and the code to read out; a port in use is one clear line and leaves
the open table and its file untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nil_tui.net.hosting import HostError, HostSettings, open_table


async def test_a_table_opens_with_the_host_at_south_and_a_busy_port_changes_nothing(
        tmp_path: Path) -> None:
    first = await open_table(HostSettings(port=0, name="Ann", home=tmp_path / "a", deals=2))
    try:
        kept = (tmp_path / "a" / "table" / "table.json").read_text(encoding="utf-8")
        seats = json.loads(kept)["seats"]
        assert (seats[0]["name"], seats[0]["owner"]) == ("Ann", True)
        assert [s["kind"] for s in seats[1:]] == ["empty"] * 3
        port = first.invite.port
        assert str(first.invite) == f"nil://127.0.0.1:{port}/{first.table.secret}"
        assert first.code.replace("-", "").endswith(first.table.secret)
        with pytest.raises(HostError, match=f"cannot listen on 127.0.0.1:{port}"):
            await open_table(HostSettings(port=port, home=tmp_path / "a"))
        # the table already open (and its file) are as they were
        assert (tmp_path / "a" / "table" / "table.json").read_text(encoding="utf-8") == kept
        client = first.own_client()
        welcome = await client.connect()
        assert welcome["seat"] == 0 and welcome["owner"] is True
        lobby = await client.receive(30)
        assert isinstance(lobby, dict) and lobby["type"] == "lobby"
        assert lobby["bots"] == ["normal"] * 4 and lobby["deals"] == 2
        await client.close()
    finally:
        await first.close()


@pytest.mark.parametrize("damage", [
    {"bind": "no such host!\x1b]0;x\x07"}, {"port": "http"}, {"port": 99999},
    {"config": None}, {"seats": 7},
])
async def test_a_damaged_table_file_is_one_clear_line_on_resume(
        tmp_path: Path, damage: dict[str, object]) -> None:
    first = await open_table(HostSettings(port=0, name="Ann", home=tmp_path, deals=2))
    await first.close()
    table_file = tmp_path / "table" / "table.json"
    kept = json.loads(table_file.read_text(encoding="utf-8"))
    kept.update(damage)
    table_file.write_text(json.dumps(kept), encoding="utf-8")
    with pytest.raises(HostError) as refused:
        await open_table(HostSettings(resume=True, home=tmp_path))
    text = str(refused.value)
    assert text.startswith("the last table's file cannot be read")
    assert "\n" not in text and "\x1b" not in text and "\x07" not in text

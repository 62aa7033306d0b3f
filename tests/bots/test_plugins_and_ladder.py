"""The sample plugin loads by module:Name without installing; import cost; and a
small ladder: normal beats easy."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nil_tui.bots import BotSpecError, check_spec, make_bot, plugin_entry_points
from nil_tui.engine import Deal

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugin"


@pytest.fixture
def plugin_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGIN))


def test_the_sample_plugin_loads_by_module_and_name(plugin_on_path: None) -> None:
    text = (PLUGIN / "pyproject.toml").read_text()
    section = text.split('[project.entry-points."nil_tui.bots"]', 1)[1]
    target = re.search(r'^ducker = "([^"]+)"', section, re.MULTILINE).group(1)  # type: ignore[union-attr]
    assert target == "nil_tui_ducker:DuckerBot"
    check_spec(target)
    bot = make_bot(target, seed=3)
    assert bot.name == "Ducker"
    rng = random.Random(4)
    for _ in range(20):
        deal = Deal.new(rng.randrange(4), rng)
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            card = bot.choose(view)
            assert card in view.legal
            deal.play(card)


def test_the_sample_entry_point_is_found_once_installed(plugin_on_path: None, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # What installing the sample leaves on the path: its metadata with the entry point.
    info = tmp_path / "nil_tui_ducker-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nil-tui-ducker\n"
                                   "Version: 0.1.0\n")
    (info / "entry_points.txt").write_text("[nil_tui.bots]\nducker = nil_tui_ducker:DuckerBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugin_entry_points()["ducker"] == "nil_tui_ducker:DuckerBot"
    check_spec("ducker")
    assert make_bot("ducker", seed=1).name == "Ducker"


def test_bad_specs_get_one_clear_line() -> None:
    for spec, words in (("nosuchbot", "unknown bot"), ("no_such_module_x:Bot", "cannot import"),
                        ("nil_tui.bots.easy:Nothing", "has no"), ("", "empty")):
        with pytest.raises(BotSpecError, match=words) as info:
            make_bot(spec, seed=0)
        assert "\n" not in str(info.value)
    check_spec("oracle")


def test_importing_the_bots_loads_no_search_code() -> None:
    code = ("import sys, nil_tui.bots; "
            "bad = [m for m in sys.modules if m.startswith(('nil_tui.bots.', 'numpy'))]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() in ("[]", "['nil_tui.bots.safety']")


def test_ladder_smoke_normal_beats_easy() -> None:
    from nil_tui.sim import run_match

    # 25 games of 8 deals, each played four times with the seats rotated
    stats = run_match(["normal", "easy", "easy", "easy"], 25, 8, seed=7, rotate=True,
                      time_cap=None).to_json()["bots"]
    lo, _hi = stats["normal"]["edge_ci95"]
    assert lo > 0, stats["normal"]
    assert stats["easy"]["edge"] < 0

"""Export -> verify round trips for every variant, tampered exports caught, and the command."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.engine.variants import VARIANTS
from games.models import Deal
from records.export import ExportRefused, export_game, verify_export
from tests.factories import login
from tests.records.helpers import computer_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_export_of_a_finished_game_verifies_for_every_variant(variant):
    game = computer_game(variant, players=3 if variant == "frustration" else 2, seed=f"export-{variant}")
    data = json.loads(json.dumps(export_game(game)))
    report = verify_export(data)
    assert report.ok, report.problems
    deals = Deal.objects.filter(game=game).count()
    assert report.deals == deals == len(data["deals"])
    assert report.moves == game.moves.count()
    assert report.commitments == list(range(1, deals + 1))
    assert data["variant"] == variant and data["options"] == game.options


def _tampered(data, change):
    copy = json.loads(json.dumps(data))
    change(copy)
    return verify_export(copy)


def test_a_tampered_export_is_reported_with_what_differs():
    data = export_game(computer_game("standard", seed="export-tamper"))
    last = data["deals"][-1]

    def swap_seed(d):
        d["deals"][0]["seed"] = "0" * 64

    def wrong_total(d):
        d["seats"][0]["total"] += 1

    def illegal_move(d):
        d["deals"][0]["moves"][1]["action"] = {"type": "discard", "card": "ZZ"}

    def wrong_commitment(d):
        d["deals"][-1]["commitment"] = "f" * 64

    assert "seed" in " ".join(_tampered(data, swap_seed).problems)
    assert "totals" in " ".join(_tampered(data, wrong_total).problems)
    assert "does not replay" in " ".join(_tampered(data, illegal_move).problems)
    report = _tampered(data, wrong_commitment)
    assert not report.ok and last["number"] not in report.commitments
    assert not verify_export({"format": "something else"}).ok


def test_an_unfinished_game_cannot_be_exported_its_seeds_are_secret():
    game = computer_game("standard", seed="export-unfinished", moves=5)
    with pytest.raises(ExportRefused):
        export_game(game)
    player = game.created_by
    response = login(player).get(f"/games/{game.pk}/export.json")
    assert response.status_code == 409
    assert game.seed not in response.content.decode()


def test_verify_game_export_command_reports_ok_and_mismatch(tmp_path):
    game = computer_game("wild", seed="export-command")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_game(game)))
    out = io.StringIO()
    call_command("verify_game_export", str(path), stdout=out)
    assert "OK: the export reproduces the recorded result." in out.getvalue()
    assert "Deal 13: seed" in out.getvalue()
    data = json.loads(path.read_text())
    data["seats"][1]["place"] = 9
    path.write_text(json.dumps(data))
    out = io.StringIO()
    with pytest.raises(CommandError, match="MISMATCH"):
        call_command("verify_game_export", str(path), stdout=out)
    assert "Recorded places" in out.getvalue()


def test_export_download_of_a_finished_game(tmp_path):
    game = computer_game("standard", seed="export-download")
    response = login(game.created_by).get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert f'game-{game.pk}.json' in response["Content-Disposition"]
    assert verify_export(json.loads(response.content)).ok

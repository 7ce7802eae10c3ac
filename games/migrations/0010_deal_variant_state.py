"""Deal.variant_state: one JSON field for the variant's own part of a deal, filled from the
per-variant columns (wild_rank and pending, W3 and W6; laid_down, R10), which 0011 drops."""

from django.db import migrations, models

import games.models


def columns_to_state(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    changed = []
    for deal in Deal.objects.only("wild_rank", "pending", "laid_down").iterator():
        state = {}
        if deal.wild_rank:
            state.update(wild_rank=deal.wild_rank, pending=list(deal.pending))
        if deal.laid_down:
            state["laid_down"] = list(deal.laid_down)
        if state:
            deal.variant_state = state
            changed.append(deal)
    Deal.objects.bulk_update(changed, ["variant_state"], batch_size=500)


def state_to_columns(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    changed = []
    for deal in Deal.objects.exclude(variant_state={}).only("variant_state").iterator():
        deal.wild_rank = deal.variant_state.get("wild_rank", "")
        deal.pending = deal.variant_state.get("pending", [])
        deal.laid_down = deal.variant_state.get("laid_down", [])
        changed.append(deal)
    Deal.objects.bulk_update(changed, ["wild_rank", "pending", "laid_down"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_expert_bot_level"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="variant_state",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="game",
            name="variant",
            field=models.CharField(choices=games.models.variant_choices, max_length=20),
        ),
        migrations.RunPython(columns_to_state, state_to_columns),
    ]

"""What a process that plans many stacks (`gpu-stacks check`, `--jobs` workers, a test session: each calls
`parallel.preload` first) keeps for every plan it forks, so that each plan's engine process and program child
pay for their stack, not for reading the same tables again (docs/testing.md, "Plans that cost less, second
pass")."""

from __future__ import annotations

from azure_gpu_stacks.catalog.arm import registry
from azure_gpu_stacks.catalog.charges import charge_prices
from azure_gpu_stacks.catalog.usage import shipped_assumptions
from azure_gpu_stacks.engine.run import parallel
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES


def test_the_preload_reads_the_cost_tables_and_every_modeled_types_id_shape() -> None:
    """Each engine process estimated the cost with prices and usage defaults it read again (YAML, parsed in
    Python: a fifth of a shipped stack's engine process), and placed its resources with the provider's path table
    read again (two JSON files)."""
    for cached in (charge_prices, shipped_assumptions, registry.placement):
        cached.cache_clear()  # read again by the preload below (or by the next plan of this process)

    parallel.preload()

    assert charge_prices.cache_info().currsize == 1
    assert shipped_assumptions.cache_info().currsize == 1
    hits = registry.placement.cache_info().hits
    for token in RESOURCE_TYPES:
        registry.placement(token)
    assert registry.placement.cache_info().hits == hits + len(RESOURCE_TYPES)  # none placed here for the first time

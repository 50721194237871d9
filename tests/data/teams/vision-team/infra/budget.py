"""The team's budget on its resource group."""

from azure_gpu_stacks.components import CostAlert


def monthly_budget(rg, amount, emails):
    return CostAlert("budget", {"scope": rg.id, "amount": amount, "contact_emails": emails})

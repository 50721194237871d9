"""Azure's region pairs: the region each region is paired with, where it has one.

Learn, "Azure regions list" (the `Paired region` column of the All tab; regions marked N/A have no pair and are left
out), MicrosoftDocs/reliability-docs articles/reliability/regions-list.md at commit 01021ab80d1a, observed 2026-11-27.
Some pairs run one way only ("Asymmetrically paired regions", regions-paired.md at 18e963b5ad0e): Brazil South ->
South Central US, West India -> South India, West US 3 -> East US. Sweden Central's pair, Sweden South, has no row of
its own in that list (no programmatic name given): left out. Keys and values are programmatic names.
"""

from __future__ import annotations

PAIRED_REGION: dict[str, str] = {
    "australiacentral": "australiacentral2",
    "australiacentral2": "australiacentral",
    "australiaeast": "australiasoutheast",
    "australiasoutheast": "australiaeast",
    "brazilsouth": "southcentralus",
    "brazilsoutheast": "brazilsouth",
    "canadacentral": "canadaeast",
    "canadaeast": "canadacentral",
    "centralindia": "southindia",
    "centralus": "eastus2",
    "eastasia": "southeastasia",
    "eastus": "westus",
    "eastus2": "centralus",
    "francecentral": "francesouth",
    "francesouth": "francecentral",
    "germanynorth": "germanywestcentral",
    "germanywestcentral": "germanynorth",
    "japaneast": "japanwest",
    "japanwest": "japaneast",
    "koreacentral": "koreasouth",
    "koreasouth": "koreacentral",
    "northcentralus": "southcentralus",
    "northeurope": "westeurope",
    "norwayeast": "norwaywest",
    "norwaywest": "norwayeast",
    "southafricanorth": "southafricawest",
    "southafricawest": "southafricanorth",
    "southcentralus": "northcentralus",
    "southindia": "centralindia",
    "southeastasia": "eastasia",
    "switzerlandnorth": "switzerlandwest",
    "switzerlandwest": "switzerlandnorth",
    "uaecentral": "uaenorth",
    "uaenorth": "uaecentral",
    "uksouth": "ukwest",
    "ukwest": "uksouth",
    "westcentralus": "westus2",
    "westeurope": "northeurope",
    "westindia": "southindia",
    "westus": "eastus",
    "westus2": "westcentralus",
    "westus3": "eastus",
}

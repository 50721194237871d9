"""pulumi-azure's storage account, `azure:storage/account:Account`, with the inputs its programs give most (pulumi-azure
6.40.1 `storage/account.py`, observed 2026-11-27)."""

from provider_stand_in import resource_class

Account = resource_class(
    "azure:storage/account:Account",
    {
        "account_kind": "accountKind",
        "account_replication_type": "accountReplicationType",
        "account_tier": "accountTier",
        "location": "location",
        "name": "name",
        "resource_group_name": "resourceGroupName",
        "tags": "tags",
    },
    {"primary_blob_endpoint": "primaryBlobEndpoint"},
)

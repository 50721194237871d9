import pulumi
from azure_gpu_stacks.components import AmlCluster, CostAlert
from pulumi_azure_native import authorization, keyvault, resources

config = pulumi.Config()
location = pulumi.Config("azure-native").require("location")
hugging_face = config.require_secret_object("huggingFace")
client = authorization.get_client_config_output()

rg = resources.ResourceGroup("rg", location=location)
aml = AmlCluster(
    "train",
    {"resource_group_name": rg.name, "location": location, "max_node_count": config.require_int("maxNodes")},
)
vault = keyvault.Vault(
    "llm-secrets",
    resource_group_name=rg.name,
    location=location,
    properties=keyvault.VaultPropertiesArgs(
        tenant_id=client.tenant_id,
        sku=keyvault.SkuArgs(family="A", name="standard"),
        enable_rbac_authorization=True,
    ),
)
keyvault.Secret(
    "hf-token",
    resource_group_name=rg.name,
    vault_name=vault.name,
    properties=keyvault.SecretPropertiesArgs(value=hugging_face.apply(lambda hf: hf["token"])),
)
keyvault.Secret(
    "db-password",
    resource_group_name=rg.name,
    vault_name=vault.name,
    properties=keyvault.SecretPropertiesArgs(value=config.require_secret("dbPassword")),
)
CostAlert("budget", {"scope": rg.id, "amount": 2000, "contact_emails": ["llm@example.com"]})
pulumi.export("studio", aml.studio_url)
pulumi.export("hfOrg", hugging_face.apply(lambda hf: hf["org"]))

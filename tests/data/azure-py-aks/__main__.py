"""An AKS cluster in the shape of pulumi/examples `azure-py-aks` (github.com/pulumi/examples,
azure-py-aks/__main__.py, read 2026-11-25): azure-native for Azure, azuread for the cluster's service
principal, random for its password and tls for the nodes' SSH key. Written for these tests."""

import base64

import pulumi
import pulumi_azuread as azuread
import pulumi_random as random
import pulumi_tls as tls
from pulumi_azure_native import containerservice, resources

config = pulumi.Config()

resource_group = resources.ResourceGroup("aks-rg")

app = azuread.Application("aks", display_name="aks")
principal = azuread.ServicePrincipal("aks-sp", application_id=app.application_id)
password = random.RandomPassword("password", length=20, special=True)
principal_password = azuread.ServicePrincipalPassword(
    "aks-sp-password", service_principal_id=principal.id, end_date="2099-01-01T00:00:00Z"
)
ssh_key = tls.PrivateKey("ssh-key", algorithm="RSA", rsa_bits=4096)

cluster_name = config.get("managedClusterName") or "azure-native-aks"
cluster = containerservice.ManagedCluster(
    cluster_name,
    resource_group_name=resource_group.name,
    agent_pool_profiles=[
        {
            "count": 3,
            "max_pods": 110,
            "mode": "System",
            "name": "agentpool",
            "os_disk_size_gb": 30,
            "os_type": "Linux",
            "type": "VirtualMachineScaleSets",
            "vm_size": "Standard_DS2_v2",
        }
    ],
    enable_rbac=True,
    linux_profile={"admin_username": "testuser", "ssh": {"public_keys": [{"key_data": ssh_key.public_key_openssh}]}},
    dns_prefix=resource_group.name,
    service_principal_profile={"client_id": app.application_id, "secret": password.result},
)

credentials = containerservice.list_managed_cluster_user_credentials_output(
    resource_group_name=resource_group.name, resource_name=cluster.name
)
pulumi.export("kubeconfig", credentials.kubeconfigs[0].value.apply(lambda encoded: base64.b64decode(encoded).decode()))
pulumi.export("passwordLength", password.result.apply(len))
pulumi.export("sshKey", ssh_key.public_key_openssh)

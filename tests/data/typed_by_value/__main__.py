"""A custom domain's records: the ARM type of a record set (`Microsoft.Network/dnsZones/A`, `.../CNAME`) and of a
Traffic Manager endpoint (`.../trafficmanagerprofiles/azureEndpoints`) is the value of one of its inputs."""

import pulumi_azure_native as azure_native

group = azure_native.resources.ResourceGroup("rg", resource_group_name="rg-dns")
zone = azure_native.dns.Zone("zone", resource_group_name=group.name, zone_name="contoso.example", location="global")
azure_native.dns.RecordSet(
    "apex-a",
    resource_group_name=group.name,
    zone_name=zone.name,
    record_type="A",
    relative_record_set_name="@",
    ttl=3600,
    a_records=[azure_native.dns.ARecordArgs(ipv4_address="203.0.113.10")],
)
azure_native.dns.RecordSet(
    "www-cname",
    resource_group_name=group.name,
    zone_name=zone.name,
    record_type="CNAME",
    relative_record_set_name="www",
    ttl=3600,
    cname_record=azure_native.dns.CnameRecordArgs(cname="contoso.azurewebsites.net"),
)
azure_native.dns.RecordSet(
    "odd",
    resource_group_name=group.name,
    zone_name=zone.name,
    record_type="Bogus",
    relative_record_set_name="odd",
    ttl=300,
)
private = azure_native.privatedns.PrivateZone(
    "private", resource_group_name=group.name, private_zone_name="privatelink.blob.core.windows.net", location="global"
)
azure_native.privatedns.PrivateRecordSet(
    "blob-a",
    resource_group_name=group.name,
    private_zone_name=private.name,
    record_type="A",
    relative_record_set_name="contosodata",
    ttl=10,
    a_records=[azure_native.privatedns.ARecordArgs(ipv4_address="10.0.0.4")],
)
profile = azure_native.trafficmanager.Profile(
    "tm",
    resource_group_name=group.name,
    profile_name="contoso-tm",
    location="global",
    traffic_routing_method="Performance",
    dns_config=azure_native.trafficmanager.DnsConfigArgs(relative_name="contoso-tm", ttl=30),
    monitor_config=azure_native.trafficmanager.MonitorConfigArgs(protocol="HTTPS", port=443, path="/"),
)
azure_native.trafficmanager.Endpoint(
    "web",
    resource_group_name=group.name,
    profile_name=profile.name,
    endpoint_type="AzureEndpoints",
    type="Microsoft.Network/trafficManagerProfiles/azureEndpoints",
    endpoint_name="web-westeurope",
    target_resource_id="/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-web/providers/"
    "Microsoft.Web/sites/contoso",
    endpoint_status="Enabled",
)

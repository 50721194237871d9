"""Stand-in for pulumi-random (see ../README.md): the resources azure-py-aks style programs use."""

from provider_stand_in import resource_class

_CHARACTERS = {
    "length": "length",
    "special": "special",
    "upper": "upper",
    "lower": "lower",
    "numeric": "numeric",
    "override_special": "overrideSpecial",
    "min_special": "minSpecial",
    "keepers": "keepers",
}
RandomPassword = resource_class(
    "random:index/randomPassword:RandomPassword", _CHARACTERS, {"result": "result", "bcrypt_hash": "bcryptHash"}
)
RandomString = resource_class("random:index/randomString:RandomString", _CHARACTERS, {"result": "result"})
RandomPet = resource_class(
    "random:index/randomPet:RandomPet",
    {"length": "length", "prefix": "prefix", "separator": "separator", "keepers": "keepers"},
    {"id": "id"},
)
RandomUuid = resource_class("random:index/randomUuid:RandomUuid", {"keepers": "keepers"}, {"result": "result"})

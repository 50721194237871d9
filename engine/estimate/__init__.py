"""Estimates from a plan and the catalog: the capacity each resource asks for, its cost, and the quota
it needs. Reads plans and the catalog only, never the fake ARM."""

"""Azure's own verdict on a plan: the plan as an ARM deployment template (`template`), and Azure's
Deployments Validate and What-If on it (`client`, with the `azure` extra), read back per resource
(`verdict`) and set beside the offline verdict (`fidelity`)."""

"""Running programs: a project read as the Pulumi CLI reads it, its program run against the fake ARM in
an isolated child, the policy pack over what it registered, and the plan that comes of it."""

"""`gpu-stacks diff BASE`: the stacks planned at a git revision and in the working tree, compared
resource by resource as Pulumi would."""

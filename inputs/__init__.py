"""Reading files people hand the tools, capped and in bounded time: stack files, `Pulumi.yaml`, JSON
and YAML inputs. Every reader of an outside file goes through `inputs.files`."""

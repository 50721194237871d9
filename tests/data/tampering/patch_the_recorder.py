import contextlib

import pulumi
from retired_vm import retired_vm_without_budget

VM = "azure-native:compute:VirtualMachine"

with contextlib.suppress(ImportError, AttributeError):
    from azure_gpu_stacks.engine.run import runtime

    recorded_by = runtime.RecordingMonitor.RegisterResource

    def forget_the_vm(self, request):
        response = recorded_by(self, request)
        if request.type == VM:
            self.recorded.pop()
        return response

    runtime.RecordingMonitor.RegisterResource = forget_the_vm

with contextlib.suppress(ImportError, AttributeError):
    from azure_gpu_stacks.fakeazure import mocks

    mocks.FakeArmMocks.new_resource = lambda self, args: (f"{args.name}-id", dict(args.inputs))

with contextlib.suppress(ImportError, AttributeError):
    from azure_gpu_stacks.engine.run import plan

    plan.analyze = lambda resources, settings: ()

retired_vm_without_budget()
pulumi.export("tampered", True)

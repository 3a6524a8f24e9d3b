"""Filter sets for the vsphere API and pages."""

import django_filters

from core import filters
from vsphere.choices import LinkType, PFSource, StepStatus
from vsphere.models import (
    DeviceAssignment,
    Host,
    OperationLog,
    PCIDevice,
    PhysicalFunction,
    VCenter,
    VFAssignment,
    VGPUProfile,
)


class VCenterFilterSet(filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = VCenter
        fields = ["name", "insecure"]


class HostFilterSet(filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Host
        fields = ["vcenter", "compute_cluster"]


class PhysicalFunctionFilterSet(filters.FilterSet):
    link_type = django_filters.ChoiceFilter(choices=LinkType.choices)
    source = django_filters.ChoiceFilter(choices=PFSource.choices)
    vcenter = filters.IntegerFilter(field_name="host__vcenter")

    class Meta:
        model = PhysicalFunction
        fields = ["host", "vcenter", "link_type", "source", "pci_id"]


class VFAssignmentFilterSet(filters.FilterSet):
    host = filters.IntegerFilter(field_name="pf__host")
    tenant = filters.IntegerFilter(field_name="cluster__tenant")

    class Meta:
        model = VFAssignment
        fields = ["cluster", "pf", "host", "tenant"]


class OperationLogFilterSet(filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=StepStatus.choices)
    after = filters.IntegerFilter(field_name="id", lookup_expr="gt", help_text="Only entries after this id")

    class Meta:
        model = OperationLog
        fields = ["generation", "status", "after"]


class PCIDeviceFilterSet(filters.FilterSet):
    vcenter = filters.IntegerFilter(field_name="host__vcenter")

    class Meta:
        model = PCIDevice
        fields = ["host", "vcenter", "kind", "mode", "pci_id"]


class VGPUProfileFilterSet(filters.FilterSet):
    class Meta:
        model = VGPUProfile
        fields = ["vcenter", "name"]


class DeviceAssignmentFilterSet(filters.FilterSet):
    host = filters.IntegerFilter(field_name="device__host")
    tenant = filters.IntegerFilter(field_name="cluster__tenant")

    class Meta:
        model = DeviceAssignment
        fields = ["cluster", "device", "host", "tenant"]

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CapabilitiesRequest")


@_attrs_define
class CapabilitiesRequest:
    """What the agent probed (enclave_agent.plan.Capabilities).

    Attributes:
        vrf (bool | Unset):
        vxlan (bool | Unset):
        nftables (bool | Unset):
        kernel (str | Unset):
        detail (str | Unset):
    """

    vrf: bool | Unset = UNSET
    vxlan: bool | Unset = UNSET
    nftables: bool | Unset = UNSET
    kernel: str | Unset = UNSET
    detail: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        vrf = self.vrf

        vxlan = self.vxlan

        nftables = self.nftables

        kernel = self.kernel

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if vrf is not UNSET:
            field_dict["vrf"] = vrf
        if vxlan is not UNSET:
            field_dict["vxlan"] = vxlan
        if nftables is not UNSET:
            field_dict["nftables"] = nftables
        if kernel is not UNSET:
            field_dict["kernel"] = kernel
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        vrf = d.pop("vrf", UNSET)

        vxlan = d.pop("vxlan", UNSET)

        nftables = d.pop("nftables", UNSET)

        kernel = d.pop("kernel", UNSET)

        detail = d.pop("detail", UNSET)

        capabilities_request = cls(
            vrf=vrf,
            vxlan=vxlan,
            nftables=nftables,
            kernel=kernel,
            detail=detail,
        )

        return capabilities_request

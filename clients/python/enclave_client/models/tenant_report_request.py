from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.tenant_report_status_enum import TenantReportStatusEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="TenantReportRequest")


@_attrs_define
class TenantReportRequest:
    """Refuse keys a serializer does not know instead of dropping them silently.

    Attributes:
        status (TenantReportStatusEnum): * `ready` - Ready
            * `not_ready` - Not ready
            * `failed` - Failed
        errors (list[str] | Unset):
    """

    status: TenantReportStatusEnum
    errors: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        errors: list[str] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = self.errors

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = TenantReportStatusEnum(d.pop("status"))

        errors = cast(list[str], d.pop("errors", UNSET))

        tenant_report_request = cls(
            status=status,
            errors=errors,
        )

        return tenant_report_request

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.plan_preview_status_enum import PlanPreviewStatusEnum

if TYPE_CHECKING:
    from ..models.plan_change import PlanChange


T = TypeVar("T", bound="PlanPreview")


@_attrs_define
class PlanPreview:
    """The dry run: what the reconciler would change now, or why no plan can be made (worker-computed).

    Attributes:
        cluster (int):
        state (str): The cluster's state
        status (PlanPreviewStatusEnum): * `queued` - Asking vCenter
            * `ready` - Ready
            * `failed` - No plan
        requested (datetime.datetime):
        finished (datetime.datetime | None):
        vcenter (None | str):
        changes (list[PlanChange]):
        error (str):
    """

    cluster: int
    state: str
    status: PlanPreviewStatusEnum
    requested: datetime.datetime
    finished: datetime.datetime | None
    vcenter: None | str
    changes: list[PlanChange]
    error: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cluster = self.cluster

        state = self.state

        status = self.status.value

        requested = self.requested.isoformat()

        finished: None | str
        if isinstance(self.finished, datetime.datetime):
            finished = self.finished.isoformat()
        else:
            finished = self.finished

        vcenter: None | str
        vcenter = self.vcenter

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cluster": cluster,
                "state": state,
                "status": status,
                "requested": requested,
                "finished": finished,
                "vcenter": vcenter,
                "changes": changes,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.plan_change import PlanChange

        d = dict(src_dict)
        cluster = d.pop("cluster")

        state = d.pop("state")

        status = PlanPreviewStatusEnum(d.pop("status"))

        requested = datetime.datetime.fromisoformat(d.pop("requested"))

        def _parse_finished(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_type_0 = datetime.datetime.fromisoformat(data)

                return finished_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished = _parse_finished(d.pop("finished"))

        def _parse_vcenter(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        vcenter = _parse_vcenter(d.pop("vcenter"))

        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = PlanChange.from_dict(changes_item_data)

            changes.append(changes_item)

        error = d.pop("error")

        plan_preview = cls(
            cluster=cluster,
            state=state,
            status=status,
            requested=requested,
            finished=finished,
            vcenter=vcenter,
            changes=changes,
            error=error,
        )

        plan_preview.additional_properties = d
        return plan_preview

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

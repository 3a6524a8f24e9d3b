"""The fabric agent's contract: the portal keeps and shows which fabric schemas the agent reads."""

from django.urls import reverse

from fabrics.models import Fabric
from tests.fabrics.conftest import programmed


def test_the_fabric_page_says_which_fabric_schemas_its_agent_reads(world, site, client):
    client.force_login(world.admin)
    page = client.get(reverse("fabrics:fabric-detail", kwargs={"pk": site.fabric.pk})).content.decode()
    assert "not said yet" in page
    report = programmed(site.desired()) | {"reads": [1]}
    assert site.agent().post(reverse("agent-fabric-report", kwargs={"fabric": "ib0"}), report,
                             format="json").status_code == 204  # fmt: skip
    assert Fabric.objects.get(pk=site.fabric.pk).last_report["reads"] == [1]
    page = client.get(reverse("fabrics:fabric-detail", kwargs={"pk": site.fabric.pk})).content.decode()
    assert "fabric schema 1" in page

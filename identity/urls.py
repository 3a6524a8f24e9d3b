"""Page routes of the identity app (included at /identity/)."""

from django.urls import path

from identity import views

app_name = "identity"

urlpatterns = [
    path("rules/", views.rule_list, name="rule-list"),
    path("rules/<int:pk>/delete/", views.rule_delete, name="rule-delete"),
]

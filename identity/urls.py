"""Page routes of the identity app (included at /identity/)."""

from django.urls import path

from identity import views

app_name = "identity"

urlpatterns = [
    path("rules/", views.RuleListView.as_view(), name="rule-list"),
    path("rules/<int:pk>/delete/", views.RuleDeleteView.as_view(), name="rule-delete"),
]

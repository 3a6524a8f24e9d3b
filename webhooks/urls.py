"""Page routes of the webhooks app (included at /webhooks/)."""

from django.urls import path

from webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("", views.WebhookListView.as_view(), name="webhook-list"),
    path("<int:pk>/", views.WebhookDetailView.as_view(), name="webhook-detail"),
    path("<int:pk>/rotate-secret/", views.WebhookRotateView.as_view(), name="webhook-rotate"),
    path("<int:pk>/test/", views.WebhookTestView.as_view(), name="webhook-test"),
    path("<int:pk>/delete/", views.WebhookDeleteView.as_view(), name="webhook-delete"),
    path("deliveries/<int:pk>/replay/", views.DeliveryReplayView.as_view(), name="delivery-replay"),
]

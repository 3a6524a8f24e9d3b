"""Page routes of the webhooks app (included at /webhooks/)."""

from django.urls import path

from webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("", views.webhook_list, name="webhook-list"),
    path("<int:pk>/", views.webhook_detail, name="webhook-detail"),
    path("<int:pk>/rotate-secret/", views.webhook_rotate, name="webhook-rotate"),
    path("<int:pk>/test/", views.webhook_test, name="webhook-test"),
    path("<int:pk>/delete/", views.webhook_delete, name="webhook-delete"),
    path("deliveries/<int:pk>/replay/", views.delivery_replay, name="delivery-replay"),
]

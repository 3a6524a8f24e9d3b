"""Page routes of the catalog (included at /catalog/)."""

from django.urls import path

from catalog import views

app_name = "catalog"

urlpatterns = [
    path("", views.item_list, name="item-list"),
    path("new/", views.item_create, name="item-create"),
    path("<int:pk>/", views.item_detail, name="item-detail"),
    path("<int:pk>/edit/", views.item_edit, name="item-edit"),
]

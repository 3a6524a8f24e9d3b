"""Page routes of the catalog (included at /catalog/)."""

from django.urls import path

from catalog import views

app_name = "catalog"

urlpatterns = [
    path("", views.ItemListView.as_view(), name="item-list"),
    path("new/", views.ItemCreateView.as_view(), name="item-create"),
    path("<int:pk>/", views.ItemDetailView.as_view(), name="item-detail"),
    path("<int:pk>/edit/", views.ItemEditView.as_view(), name="item-edit"),
]

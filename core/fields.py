"""API and form fields for addresses and networks, all checked by the one grammar in core.addresses."""

from django import forms
from rest_framework import serializers

from core.addresses import AddressError, parse_address, parse_network


class NetworkField(serializers.CharField):
    """A canonical network such as 10.0.0.0/24 (no scope ids, whitespace or host bits)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)  # whitespace is refused, never silently dropped
        kwargs.setdefault("max_length", 43)
        kwargs.setdefault("help_text", "A network in canonical form, e.g. 10.0.0.0/24 or fd00::/64")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        if text == "" and self.allow_blank:
            return text
        try:
            return str(parse_network(text))
        except AddressError as exc:
            raise serializers.ValidationError(str(exc)) from None


class AddressField(serializers.CharField):
    """A canonical IP address such as 10.0.0.1 or fd00::1 (no scope id, no prefix length)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("max_length", 39)
        kwargs.setdefault("help_text", "An IP address in canonical form, e.g. 10.0.0.1 or fd00::1")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        if text == "" and self.allow_blank:
            return text
        try:
            return str(parse_address(text))
        except AddressError as exc:
            raise serializers.ValidationError(str(exc)) from None


class NetworkListField(serializers.ListField):
    """Networks the serializer checks itself (one message per bad value); the schema states their grammar."""

    def __init__(self, **kwargs):
        kwargs.setdefault("child", serializers.CharField(trim_whitespace=False, max_length=64))
        super().__init__(**kwargs)


def clean_network(text: str) -> str:
    """Form helper: a canonical network, or a ValidationError with the grammar's message."""
    try:
        return str(parse_network(text))
    except AddressError as exc:
        raise forms.ValidationError(str(exc)) from None

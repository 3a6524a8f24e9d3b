"""The notification preferences form: one e-mail checkbox per kind of notice."""

from django import forms

from notices.choices import NoticeKind


class PreferencesForm(forms.Form):
    """E-mail on or off per kind; in-app notices always appear."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind, label in NoticeKind.choices:
            self.fields[kind] = forms.BooleanField(required=False, label=label)

// placeholder: filled by the communicators issue

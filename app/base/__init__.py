"""What every layer uses: words in three languages (Msg, Text), the error family, the shipped files."""

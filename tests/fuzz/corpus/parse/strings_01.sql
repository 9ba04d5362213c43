select '''tri
ple''', r"raw\"", b'\x00\xff', rb'x', '\u00e9\U0001F600\101', `a\`b`
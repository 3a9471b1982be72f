[playlist]
File1=http://radio.example:8000/live.mp3
Title1=Radio Example
Length1=-1
File2=https://[::1]:8443/a.aac
File3=pipe:0
File4=C:\Music\a.mp3
NumberOfEntries=4
Version=2

module bretter

go 1.26

module github.com/havenbot/haven

go 1.26.0

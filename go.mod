module github.com/panectl/panectl

go 1.26.8

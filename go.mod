module github.com/panectl/panectl

go 1.26.8

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/pelletier/go-toml/v2 v2.4.3
)

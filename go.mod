module github.com/havenbot/haven

go 1.26.0

require (
	github.com/sashabaranov/go-openai v1.43.0
	go.yaml.in/yaml/v3 v3.0.6
)

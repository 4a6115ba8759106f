from popreplay import create_app

app = create_app()
